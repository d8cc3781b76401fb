import { Button, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { DialogShell } from './form-dialog';

/** A yes/no question before something that cannot be undone. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** More to read before deciding, below the message. */
  children?: ReactNode;
}) {
  return (
    <DialogShell
      role="alertdialog"
      placement="center"
      open={props.open}
      onClose={props.onCancel}
      title={props.title}
      footer={
        <>
          <Button variant="outline" onClick={props.onCancel} disabled={props.pending}>
            {props.cancelLabel ?? 'Cancel'}
          </Button>
          <Button colorPalette="red" onClick={props.onConfirm} loading={props.pending}>
            {props.confirmLabel}
          </Button>
        </>
      }
    >
      <Text>{props.message}</Text>
      {props.children}
    </DialogShell>
  );
}
