export const DATA_TOAST_DURATION = 5000;

export const INFO_TOASTS = {
  exported: { title: 'Export ready', description: 'Your data was downloaded as a JSON file.' },
  exportFailed: { title: 'Export failed', description: 'Your data could not be exported. Please try again.' },
  deleted: { title: 'Data deleted', description: 'Your data has been deleted. You are being signed out.' },
  deleteFailed: { title: 'Delete failed', description: 'Your data could not be deleted. Please try again.' },
} as const;

export const EXPORT_FILE_NAME = 'cadre-my-data.json';
