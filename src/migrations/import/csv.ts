// The conflicts CSV of an import (ghe-migrator's migration map): model_name,source_url,target_url,recommended_action.
// Written by `--conflicts FILE` and read back, edited, by `--map FILE`; the CLI and the server share this one format.

/** The request header that carries a migration map: the rows as JSON, gzipped, base64url (a few thousand rows fit). */
export const IMPORT_MAP_HEADER = 'x-hublet-import-map';

const IMPORT_ACTIONS = ['import', 'map', 'rename', 'skip'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];
const MODEL_NAMES = ['user', 'organization', 'repository'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

/** One record of the archive and what the import does with it. */
export interface MapRow {
  model_name: ModelName;
  source_url: string;
  target_url: string;
  recommended_action: ImportAction;
}

const HEADER = ['model_name', 'source_url', 'target_url', 'recommended_action'] as const;

function cell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** The rows as CSV, header first. */
export function formatMapCsv(rows: readonly MapRow[]): string {
  return [HEADER.join(','), ...rows.map((r) => HEADER.map((h) => cell(r[h])).join(','))].map((l) => `${l}\n`).join('');
}

/** Splits CSV text into rows of cells (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
function cells(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cur);
      cur = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cur);
      rows.push(row);
      row = [];
      cur = '';
    } else cur += ch;
  }
  if (quoted) throw new Error('a quoted cell is not closed');
  if (cur !== '' || row.length) rows.push([...row, cur]);
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

/** One row of a map checked: known model and action, a source URL, a target URL where the action needs one. */
function checkedRow(model: string, source: string, target: string, action: string, at: string): MapRow {
  if (!(MODEL_NAMES as readonly string[]).includes(model)) throw new Error(`${at}: model_name must be one of ${MODEL_NAMES.join(', ')}`);
  if (!(IMPORT_ACTIONS as readonly string[]).includes(action))
    throw new Error(`${at}: recommended_action must be one of ${IMPORT_ACTIONS.join(', ')}`);
  if (!source) throw new Error(`${at}: source_url is empty`);
  if (!target && (action === 'map' || action === 'rename')) throw new Error(`${at}: ${action} needs a target_url`);
  return { model_name: model as ModelName, source_url: source, target_url: target, recommended_action: action as ImportAction };
}

/**
 * Reads a migration map (the conflicts CSV, edited): a header with the four columns (in any order), then one row per
 * record. Throws an Error naming the line for anything else: an unknown model or action, a missing URL.
 */
export function parseMapCsv(text: string): MapRow[] {
  const [header, ...lines] = cells(text.replace(/^\uFEFF/, ''));
  const index = HEADER.map((h) => header?.findIndex((c) => c.trim() === h) ?? -1);
  if (index.some((i) => i < 0)) throw new Error(`the header must name the columns ${HEADER.join(',')}`);
  return lines.map((line, n) => {
    const [model, source, target, action] = index.map((i) => (line[i] ?? '').trim());
    return checkedRow(model, source, target, action, `line ${n + 2}`);
  });
}

/** A map sent as JSON (the rows as objects with the CSV's columns), checked as parseMapCsv checks a file. */
export function mapRowsFromJson(value: unknown): MapRow[] {
  if (!Array.isArray(value)) throw new Error('the map must be a list of rows');
  return value.map((r, n) => {
    const row = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>;
    const s = (k: string) => (typeof row[k] === 'string' ? (row[k] as string).trim() : '');
    return checkedRow(s('model_name'), s('source_url'), s('target_url'), s('recommended_action'), `row ${n + 1}`);
  });
}
