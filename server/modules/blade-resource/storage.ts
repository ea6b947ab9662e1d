import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, MESSAGES } from '../../http/envelope';

/**
 * Object names and local object storage under UPLOAD_DIR (DATA_DIR/upload by default). Names are `<tenant>/<yyyyMMdd>/<32 hex>.<ext>` in
 * every store: the random part makes links unguessable, so local files can be served without a token (images in
 * <img> tags send no headers), and the strict shape means a name taken from a URL or a row can never leave the
 * upload directory. The client's file name is kept only as the attachment's display name.
 */

export const OBJECT_NAME = /^(\d{6})\/(\d{8})\/([0-9a-f]{32}(?:\.[a-z0-9]{1,10})?)$/;

const pad = (n: number) => String(n).padStart(2, '0');
const today = (d = new Date()) => `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;

/** The client's file name without any directory part, for display only. */
export function displayName(filename: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it strips
  const name = basename(String(filename ?? '').replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '').trim();
  return (name || 'file').slice(0, 255);
}

/** Lower-case extension of a file name when it is a plain one (letters and digits), else ''. */
export function extensionOf(filename: string): string {
  return /\.([A-Za-z0-9]{1,10})$/.exec(filename)?.[1].toLowerCase() ?? '';
}

/** A new object name for a tenant's upload of today. */
export function newObjectName(tenantId: string, extension: string): string {
  return `${tenantId}/${today()}/${randomBytes(16).toString('hex')}${extension ? `.${extension}` : ''}`;
}

export interface StoredObject {
  name: string;
  size: number;
}

export class LocalStorage {
  readonly root: string;

  constructor(uploadDir: string) {
    this.root = resolve(uploadDir);
  }

  /** The file of an object name, or undefined when the name is not one this storage issues. */
  pathOf(name: string): string | undefined {
    if (!OBJECT_NAME.test(name)) return undefined;
    const path = resolve(this.root, ...name.split('/'));
    return path.startsWith(this.root + sep) ? path : undefined;
  }

  /** Streams an upload to disk; a stream cut at the size limit leaves nothing behind and is a 413. */
  async put(name: string, source: Readable & { truncated?: boolean }): Promise<StoredObject> {
    const path = this.pathOf(name);
    if (!path) throw new ApiError(400, '文件名不合法');
    await mkdir(join(path, '..'), { recursive: true });
    const partial = `${path}.part`;
    try {
      await pipeline(source, createWriteStream(partial, { flags: 'wx' }));
      if (source.truncated) throw new ApiError(413, MESSAGES.tooLarge);
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { name, size: (await stat(path)).size };
  }

  async remove(name: string): Promise<void> {
    const path = this.pathOf(name);
    if (path) await rm(path, { force: true });
  }
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  zip: 'application/zip',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** Types shown in the browser; anything else (html, svg …) is sent as a download so it cannot run scripts here. */
const INLINE = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'ico', 'pdf', 'txt', 'mp4', 'mp3']);

export function contentTypeOf(name: string): { type: string; inline: boolean } {
  const ext = extensionOf(name);
  return { type: MIME[ext] ?? 'application/octet-stream', inline: INLINE.has(ext) };
}
