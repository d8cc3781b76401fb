import { Button, Dialog, Portal, Text } from '@chakra-ui/react';

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
}) {
  return (
    <Dialog.Root
      role="alertdialog"
      open={props.open}
      onOpenChange={(e) => !e.open && props.onCancel()}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{props.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>{props.message}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={props.onCancel} disabled={props.pending}>
                {props.cancelLabel ?? 'Cancel'}
              </Button>
              <Button colorPalette="red" onClick={props.onConfirm} loading={props.pending}>
                {props.confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
