import type * as S3Sdk from '@aws-sdk/client-s3';
import type { KnowledgeConfig } from '../../config.ts';

/**
 * Knowledge files' bytes in an S3-compatible bucket (KNOWLEDGE_S3_BUCKET), through the AWS SDK's
 * S3 client. Its endpoint is the operator's setting, never a user's or a model's, so like the LLM
 * providers' SDKs it is an operator-configured client outside the egress guard (which is for URLs
 * that users and models choose); the network lint restricts Node's and the common HTTP modules,
 * not SDKs, and this is the only file that imports the S3 client.
 */
export interface ObjectStore {
  put(key: string, bytes: Uint8Array, mediaType: string): Promise<void>;
  /** The object's bytes; undefined when the bucket has no such key. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Deleting a key the bucket does not have succeeds (S3's DeleteObject is idempotent). */
  delete(key: string): Promise<void>;
  close(): void;
}

/**
 * The SDK (some 6 MiB of heap) is loaded with the client on the store's first call, not at start:
 * most instances keep their files in the database and never need it.
 */
export function createS3Store(settings: NonNullable<KnowledgeConfig['bucket']>): ObjectStore {
  let loading: Promise<{ sdk: typeof S3Sdk; client: S3Sdk.S3Client }> | undefined;
  const connect = () =>
    (loading ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: newClient(sdk, settings) })));
  const Bucket = settings.bucket;
  return {
    async put(key, bytes, mediaType) {
      const { sdk, client } = await connect();
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: mediaType }));
    },
    async get(key) {
      const { sdk, client } = await connect();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        if (error instanceof sdk.NoSuchKey) return undefined;
        throw error;
      }
    },
    async delete(key) {
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    close() {
      // A store never called has no client to close.
      void loading?.then(
        ({ client }) => client.destroy(),
        () => {},
      );
    },
  };
}

function newClient(sdk: typeof S3Sdk, settings: NonNullable<KnowledgeConfig['bucket']>): S3Sdk.S3Client {
  return new sdk.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.pathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where S3 requires them: many S3-compatible servers refuse the newer headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}
