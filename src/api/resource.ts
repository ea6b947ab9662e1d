import { http, type Envelope } from './client';

export interface PutFileResult {
  link: string;
  name?: string;
  originalName?: string;
}

/** Uploads one file (multipart field 'file'), telling `onProgress` the bytes sent; the answer carries its public link. */
export function putFile(file: File, onProgress?: (sent: number, total: number) => void): Promise<PutFileResult> {
  const body = new FormData();
  body.append('file', file);
  return http.upload<Envelope<PutFileResult>>('api/blade-resource/oss/endpoint/put-file', body, { onProgress }).then((r) => r.data);
}
