import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { FormEvent, ReactNode } from 'react';

interface DialogShellProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Makes the content a form; the footer's submit button sends it. */
  onSubmit?: (event: FormEvent) => void;
  /** 'alertdialog' for a question the person has to answer; it has no close button. */
  role?: 'dialog' | 'alertdialog';
  size?: 'sm' | 'md' | 'lg' | 'xl';
  placement?: 'top' | 'center';
  /** Long content scrolls inside the dialog instead of the page. */
  scrollInside?: boolean;
}

/** Every dialog of the app: title, body, an optional footer, closed by Escape, backdrop or ✕. */
export function DialogShell(props: DialogShellProps) {
  const alert = props.role === 'alertdialog';
  return (
    <Dialog.Root
      open={props.open}
      onOpenChange={(event) => !event.open && props.onClose()}
      role={props.role}
      size={props.size}
      placement={props.placement}
      scrollBehavior={props.scrollInside ? 'inside' : undefined}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content
            // The form checks its fields itself and marks the wrong ones (no browser bubbles).
            {...(props.onSubmit ? { as: 'form', onSubmit: props.onSubmit, noValidate: true } : {})}
            aria-describedby={undefined}
          >
            <Dialog.Header>
              <Dialog.Title>{props.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{props.children}</Dialog.Body>
            {props.footer && <Dialog.Footer>{props.footer}</Dialog.Footer>}
            {!alert && (
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close" />
              </Dialog.CloseTrigger>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * A dialog that is a form: the body's fields, then Cancel and a submit button. `disabled` holds
 * both buttons (another operation runs); `pending` shows this form's own submission.
 */
export function FormDialog(props: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  onSubmit: (event: FormEvent) => void;
  submitLabel: string;
  cancelLabel?: string;
  disabled?: boolean;
  pending?: boolean;
}) {
  return (
    <DialogShell
      open={props.open}
      onClose={props.onClose}
      title={props.title}
      onSubmit={props.onSubmit}
      placement="center"
      footer={
        <>
          <Button
            variant="outline"
            type="button"
            onClick={props.onClose}
            disabled={props.disabled || props.pending}
          >
            {props.cancelLabel ?? 'Cancel'}
          </Button>
          <Button type="submit" colorPalette="brand" disabled={props.disabled} loading={props.pending}>
            {props.submitLabel}
          </Button>
        </>
      }
    >
      {props.children}
    </DialogShell>
  );
}
