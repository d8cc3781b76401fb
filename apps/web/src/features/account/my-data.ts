/**
 * The person's own data (the Info page's data rights and the user menu's "Your data"): the export
 * download and the account deletion, with their toasts, through the generated client.
 */
import { useMutation } from '@tanstack/react-query';
import * as sdk from '../../client/sdk.gen';
import { toaster } from '../../components/ui/toaster';
import { saveFile } from '../../lib/download';

export const DATA_TOAST_DURATION = 5000;
export const EXPORT_FILE_NAME = 'cadre-my-data.json';

export const MY_DATA_TOASTS = {
  exported: { title: 'Export ready', description: 'Your data was downloaded as a JSON file.' },
  exportFailed: { title: 'Export failed', description: 'Your data could not be exported. Please try again.' },
  deleted: { title: 'Data deleted', description: 'Your data has been deleted. You are being signed out.' },
  deleteFailed: { title: 'Delete failed', description: 'Your data could not be deleted. Please try again.' },
} as const;

/** Saves the export as a JSON file. */
export function downloadJson(data: unknown, fileName: string) {
  saveFile(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), fileName);
}

const toast = (text: { title: string; description: string }, type: 'success' | 'error') =>
  toaster.create({ ...text, type, duration: DATA_TOAST_DURATION });

/** GET /api/v1/users/me/export, saved as a file. */
export function useExportMyData() {
  return useMutation({
    mutationFn: () => sdk.exportMyData(),
    onSuccess: (data) => {
      downloadJson(data, EXPORT_FILE_NAME);
      toast(MY_DATA_TOASTS.exported, 'success');
    },
    onError: () => toast(MY_DATA_TOASTS.exportFailed, 'error'),
  });
}

/**
 * DELETE /api/v1/users/me, then `signOut` (the identity provider's, so no session signs back in):
 * the account is gone.
 */
export function useDeleteMyData({ signOut }: { signOut: () => Promise<void> }) {
  return useMutation({
    mutationFn: () => sdk.deleteMyData(),
    onSuccess: async () => {
      toast(MY_DATA_TOASTS.deleted, 'success');
      await signOut();
    },
    onError: () => toast(MY_DATA_TOASTS.deleteFailed, 'error'),
  });
}
