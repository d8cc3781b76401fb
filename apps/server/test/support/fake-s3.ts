import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-compatible server on 127.0.0.1 speaking S3's REST wire format for what Cadre uses:
 * PutObject, GetObject and DeleteObject on one bucket, path-style (`/bucket/key`). Every request
 * must carry a valid AWS Signature Version 4 for the fake's key pair (the signature is recomputed
 * here, so a wrong secret or region is refused with 403 `SignatureDoesNotMatch`, as S3 does), and
 * a signed payload hash that matches the body. Errors are S3's XML documents.
 */
export interface FakeS3 {
  url: string;
  /** The bucket's objects by key. */
  objects: Map<string, { bytes: Buffer; contentType: string | undefined }>;
  /** Every request: its method and key, in order. */
  requests: { method: string; key: string }[];
  /** While true, every request answers 503 (an outage). */
  failing: boolean;
  /** How many more PutObject calls succeed; past them each answers 503 (Infinity: all). */
  putsLeft: number;
  /** The settings that point Cadre at this bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const BUCKET = 'cadre-files';
const REGION = 'eu-west-3';
const ACCESS_KEY_ID = 'AKIAFAKES3TEST';
export const FAKE_S3_SECRET = 'fake-s3-secret-access-key-never-logged';

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();

function xmlError(code: string, message: string) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/** The SigV4 signature S3 would compute for this request, or why the request cannot be signed. */
function expectedSignature(req: http.IncomingMessage, rawPath: string, rawQuery: string) {
  const authorization = req.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) return { error: 'The authorization header is malformed.' };
  const [, keyId, date, region, signedHeaders, signature] = match;
  if (keyId !== ACCESS_KEY_ID) return { error: 'The AWS access key id does not exist.' };
  if (region !== REGION) return { error: `The region '${region}' is wrong; expecting '${REGION}'.` };
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const canonicalHeaders = signedHeaders!
    .split(';')
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalQuery = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => (pair.includes('=') ? pair : `${pair}=`))
    .sort()
    .join('&');
  const canonicalRequest = [
    req.method,
    rawPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    String(req.headers['x-amz-content-sha256'] ?? ''),
  ].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${FAKE_S3_SECRET}`, date!), region!), 's3'), 'aws4_request');
  return { expected: hmac(key, stringToSign).toString('hex'), signature };
}

export async function startFakeS3(): Promise<FakeS3> {
  const objects: FakeS3['objects'] = new Map();
  const requests: FakeS3['requests'] = [];
  const state = { failing: false, putsLeft: Infinity };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const [rawPath = '/', rawQuery = ''] = (req.url ?? '/').split('?');
      const [, bucket, ...rest] = rawPath.split('/');
      const key = decodeURIComponent(rest.join('/'));
      requests.push({ method: req.method ?? '', key });
      const answer = (status: number, text: string | Buffer = '', headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'x-amz-request-id': crypto.randomUUID(), ...headers });
        res.end(text);
      };
      const error = (status: number, code: string, message: string) =>
        answer(status, xmlError(code, message), { 'content-type': 'application/xml' });

      if (state.failing) return error(503, 'ServiceUnavailable', 'Please reduce your request rate.');
      const signing = expectedSignature(req, rawPath, rawQuery);
      if ('error' in signing) return error(403, 'InvalidAccessKeyId', signing.error!);
      if (signing.expected !== signing.signature)
        return error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match.');
      const payloadHash = req.headers['x-amz-content-sha256'];
      if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body))
        return error(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 does not match.');
      if (bucket !== BUCKET) return error(404, 'NoSuchBucket', 'The specified bucket does not exist.');
      if (!key) return error(400, 'InvalidRequest', 'Only object operations are implemented.');

      if (req.method === 'PUT') {
        if (state.putsLeft <= 0) return error(503, 'SlowDown', 'Please reduce your request rate.');
        state.putsLeft -= 1;
        objects.set(key, { bytes: body, contentType: req.headers['content-type'] });
        return answer(200, '', { etag: `"${crypto.createHash('md5').update(body).digest('hex')}"` });
      }
      if (req.method === 'GET') {
        const object = objects.get(key);
        if (!object) return error(404, 'NoSuchKey', 'The specified key does not exist.');
        return answer(200, object.bytes, {
          'content-type': object.contentType ?? 'application/octet-stream',
          'content-length': String(object.bytes.length),
          etag: `"${crypto.createHash('md5').update(object.bytes).digest('hex')}"`,
        });
      }
      if (req.method === 'DELETE') {
        objects.delete(key);
        return answer(204);
      }
      return error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    objects,
    requests,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    get putsLeft() {
      return state.putsLeft;
    },
    set putsLeft(value: number) {
      state.putsLeft = value;
    },
    env: {
      KNOWLEDGE_S3_BUCKET: BUCKET,
      KNOWLEDGE_S3_ENDPOINT: url,
      KNOWLEDGE_S3_REGION: REGION,
      KNOWLEDGE_S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      KNOWLEDGE_S3_SECRET_ACCESS_KEY: FAKE_S3_SECRET,
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
