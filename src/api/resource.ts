import { http, type Envelope } from './client';

export interface PutFileResult {
  link: string;
  name?: string;
  originalName?: string;
}

/** Uploads one file (multipart field 'file'); the answer carries its public link. */
export function putFile(file: File): Promise<PutFileResult> {
  const body = new FormData();
  body.append('file', file);
  return http.post<Envelope<PutFileResult>>('api/blade-resource/oss/endpoint/put-file', { body }).then((r) => r.data);
}
