/** Hands a blob to the browser's download under a name, through a temporary link. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click the browser holds the file; the URL can go once it has started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
