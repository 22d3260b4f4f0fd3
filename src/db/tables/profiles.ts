// Table types of what a person shows on their profile besides the `users` row: the uploaded picture (migration
// 2026-11-28T02-10-avatars.ts).
import type { Selectable } from 'kysely';

interface AvatarsTable {
  user_id: number;
  content: Buffer;
  media_type: string;
  /** SHA-256 of the content, hex. */
  sha: string;
  updated_at: string;
}

export interface ProfileTables {
  avatars: AvatarsTable;
}

export type AvatarRow = Selectable<AvatarsTable>;
