// The JSON of a gist import record (hublet's own: GitHub has no gist import API).
import type { Urls } from '../core/urls.js';
import { isoUtc } from '../core/timestamps.js';
import type { ImportEntry } from './import-store.js';

/** `pending`: the gist is still at the revision the import created, before the source's history was pushed over it. */
export function gistImport(e: ImportEntry, urls: Urls) {
  return {
    source: e.source,
    gist_id: e.gist_id,
    url: urls.api(`/gists/${e.gist_id}`),
    head: e.head_sha,
    pending: e.head_sha === e.placeholder_sha,
    created_at: isoUtc(e.created_at),
  };
}
