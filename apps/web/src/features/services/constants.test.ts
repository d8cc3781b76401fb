import { describe, expect, it } from 'vitest';
import { SERVICE_TEXT, SERVICE_TOAST_DURATION, SERVICE_TOASTS } from './constants';

describe('service texts (spec sections 2 and 8)', () => {
  it('has every toast text word for word and the 5000 ms duration', () => {
    expect(SERVICE_TOAST_DURATION).toBe(5000);
    expect(SERVICE_TOASTS.registerFailedApiKey('Gmail').title).toBe('Failed to register Gmail by API key.');
    expect(SERVICE_TOASTS.registerFailedOAuth('Gmail').title).toBe('Failed to register Gmail via Auth.');
    expect(SERVICE_TOASTS.registerFailedNoAuth('Gmail').title).toBe(
      'Failed to register Gmail without authentication.',
    );
    expect(SERVICE_TOASTS.disconnectFailed('Gmail').title).toBe('Failed to disconnect Gmail.');
    expect(SERVICE_TOASTS.notActive('Gmail')).toEqual({
      title: 'Registration Error',
      description: 'The service "Gmail" didn\'t become active.',
    });
    expect(SERVICE_TOASTS.apiKeyRequired).toEqual({
      title: 'API Key Required',
      description: 'Please enter an API Key to proceed.',
    });
    expect(SERVICE_TOASTS.registered('Gmail')).toEqual({
      title: 'Service Registered Successfully',
      description: 'The service "Gmail" is now active.',
    });
    expect(SERVICE_TOASTS.disconnected('Gmail')).toEqual({
      title: 'Service Disconnected',
      description: 'The service "Gmail" has been disconnected.',
    });
  });

  it('has the screen texts', () => {
    expect(SERVICE_TEXT.statusLine('ACTIVE', 'API_KEY')).toBe('Status: ACTIVE | Auth: API_KEY');
    expect(SERVICE_TEXT.actionsFor('Gmail')).toBe('Actions for Gmail');
    expect(SERVICE_TEXT.searchServices).toBe('Search services...');
    expect(SERVICE_TEXT.searchTools).toBe('Search tools...');
    expect(SERVICE_TEXT.searchActions).toBe('Search actions...');
    expect(SERVICE_TEXT.apiKeyTitle).toBe('Enter API Key');
    expect(SERVICE_TEXT.activeServicesHint).toBe('Click on a service below to view and add tools.');
  });
});
