import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAtRoute, renderWithUi } from '../test/render';
import { ConfigErrorScreen } from './config-error-screen';
import { NotFound } from './not-found';
import { RouteError } from './route-error';

describe('not-found screen', () => {
  it("shows 404, 'Oops!', 'Page not found.' and a 'Go back' link to /", async () => {
    renderAtRoute(NotFound);
    expect(await screen.findByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Oops!')).toBeInTheDocument();
    expect(screen.getByText('Page not found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
  });
});

describe('route error screen', () => {
  it('toggles the error message with Show Error / Hide Error', async () => {
    const user = userEvent.setup();
    renderWithUi(<RouteError error={new Error('loader exploded')} reset={() => {}} />);
    expect(screen.getByRole('heading', { name: 'Something went wrong!' })).toBeInTheDocument();
    expect(screen.queryByText('loader exploded')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show Error' }));
    expect(screen.getByText('loader exploded')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hide Error' }));
    expect(screen.queryByText('loader exploded')).not.toBeInTheDocument();
  });
});

describe('configuration error screen', () => {
  it('names every bad field', () => {
    renderWithUi(<ConfigErrorScreen problems={['apiUrl: Invalid URL', 'unknown field: extra']} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Cadre cannot start');
    expect(screen.getByText('apiUrl: Invalid URL')).toBeInTheDocument();
    expect(screen.getByText('unknown field: extra')).toBeInTheDocument();
  });
});
