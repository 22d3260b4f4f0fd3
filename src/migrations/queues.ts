// Names and limits of the migration job queues.

/** Exports: one job per migration, enqueued with the migration row. */
export const EXPORT_QUEUE = 'migration-export';
/** Archive expiry: one job per exported archive, due when the archive's lifetime ends. */
export const EXPIRY_QUEUE = 'migration-archive-expiry';
/** Attempts an export gets (a failure or a dead worker uses one); then the migration is `failed`. */
export const EXPORT_MAX_ATTEMPTS = 3;
/** An export's lease; a running export renews it, so only a dead worker's export is claimed again. */
export const EXPORT_LEASE_MS = 60_000;
