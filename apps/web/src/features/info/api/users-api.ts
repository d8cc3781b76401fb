/** The user's own data (exportMyData, deleteMyData), declared once on the generated client. */
import { client } from '../../../client/client.gen';

const dataOnly = { responseStyle: 'data', throwOnError: true } as const;

export const exportMyData = () =>
  client.get<{ 200: unknown }, unknown, true, 'data'>({ ...dataOnly, url: '/api/v1/users/me/export' });

export const deleteMyData = () =>
  client.delete<{ 204: void; 200: unknown }, unknown, true, 'data'>({ ...dataOnly, url: '/api/v1/users/me' });

/** Saves the export as a JSON file through a temporary link (no new window, nothing inline). */
export function downloadJson(data: unknown, fileName: string) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
