import { vi } from 'vitest';

/**
 * Catches the files the app saves through a temporary link (`lib/download.ts`): each file's name
 * and contents, in order. jsdom has neither object URLs nor downloads; `restore` undoes both fakes.
 */
export function captureDownloads() {
  const files: { name: string; blob?: Blob }[] = [];
  let last: Blob | undefined;
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, {
      createObjectURL: (blob: Blob) => {
        last = blob;
        return 'blob:http://app.test/download';
      },
      revokeObjectURL: () => {},
    }),
  );
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    files.push({ name: this.download, blob: last });
  });
  return {
    files,
    restore() {
      click.mockRestore();
      vi.unstubAllGlobals();
    },
  };
}
