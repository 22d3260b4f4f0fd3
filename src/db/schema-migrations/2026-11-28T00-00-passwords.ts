// Passwords of users (`hublet admin user set-password`, sign-in on the web later): one scrypt hash per user, in a
// table of its own so that no read of `users` ever carries it. The row goes with the user.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_passwords')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    /** `$scrypt$ln=…,r=…,p=…$<salt>$<hash>` (accounts/passwords.ts). */
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_passwords').execute();
}
