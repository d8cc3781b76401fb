/** The user's own data: the generated exportMyData and deleteMyData calls. */
import * as sdk from '../../../client/sdk.gen';

export const exportMyData = () => sdk.exportMyData();
export const deleteMyData = () => sdk.deleteMyData();

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
