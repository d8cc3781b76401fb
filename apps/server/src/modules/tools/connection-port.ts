/** An owner and service that a provider's account id names (a webhook names the account, not the user). */
export interface ConnectionOwner {
  user_id: number;
  service_id: number;
}

/**
 * A user's connections to services as the tools layer uses them: to run an action with the user's
 * credentials and to apply a provider's webhook. The services module owns the connections table
 * and implements this port; `app.ts` wires it in.
 */
export interface ConnectionStore {
  /** The user's one connection to the service, if any; `credentials` stay sealed. */
  findConnection(
    userId: number,
    serviceId: number,
  ): Promise<{ status: string; credentials: string | null; last_used_at: string | null } | undefined>;
  /**
   * A tool call used the connection at `at`: `error` is what it failed with, if it failed for a
   * reason of the connection's; `change` is new sealed credentials or a status.
   */
  recordUse(
    userId: number,
    serviceId: number,
    use: { at: string; error?: string; change?: { status?: string; credentials?: string } },
  ): Promise<void>;
  /** Sets the status of the connections with a provider's external account id; returns whose. */
  setStatusByExternalId(provider: string, externalId: string, status: string): Promise<ConnectionOwner[]>;
  /** The connections a provider's external account id belongs to. */
  findByExternalId(provider: string, externalId: string): Promise<ConnectionOwner[]>;
}
