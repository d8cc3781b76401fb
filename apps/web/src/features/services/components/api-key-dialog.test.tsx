import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { renderWithProviders } from '../../../test/render';
import { ApiKeyDialog } from './api-key-dialog';

afterEach(() => vi.restoreAllMocks());

function setup() {
  const onSubmit = vi.fn();
  const onClose = vi.fn();
  const toast = vi.spyOn(toaster, 'create');
  renderWithProviders(
    <ApiKeyDialog open serviceName="Weather" disabled={false} onSubmit={onSubmit} onClose={onClose} />,
  );
  return { onSubmit, onClose, toast, user: userEvent.setup() };
}

describe('Enter API Key dialog', () => {
  it('refuses a blank key with the API Key Required toast and stays open', async () => {
    const { onSubmit, onClose, toast, user } = setup();
    expect(await screen.findByText('Enter API Key')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/API Key for Weather/), '   ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(toast).toHaveBeenCalledWith({
      title: 'API Key Required',
      description: 'Please enter an API Key to proceed.',
      type: 'error',
      duration: 5000,
    });
    expect(onSubmit).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    // The field itself says what is wrong and has the focus.
    const input = screen.getByLabelText(/API Key for Weather/);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleErrorMessage('Enter the key Weather gave you.');
    expect(input).toHaveFocus();
    await user.type(input, 'k');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('submits the trimmed key, clears the input and closes', async () => {
    const { onSubmit, onClose, toast, user } = setup();
    const input = await screen.findByLabelText(/API Key for Weather/);
    await user.type(input, '  sk-123  ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith('sk-123');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(toast).not.toHaveBeenCalled();
    await waitFor(() => expect(input).toHaveValue(''));
  });

  it('Cancel closes without submitting', async () => {
    const { onSubmit, onClose, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('disables Submit and Cancel while a service operation is pending', async () => {
    renderWithProviders(
      <ApiKeyDialog open serviceName="Weather" disabled onSubmit={vi.fn()} onClose={vi.fn()} />,
    );
    expect(await screen.findByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  });
});
