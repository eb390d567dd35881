import type { DocumentContentType } from 'src/modules/documents/entities/document.entity';

const SIGNATURES: ReadonlyArray<{ type: DocumentContentType; bytes: number[] }> = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/** The accepted content type whose magic bytes open `head`, or undefined. */
export function sniffContentType(head: Buffer): DocumentContentType | undefined {
  return SIGNATURES.find(({ bytes }) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b))
    ?.type;
}

/** The uploader's file name for display: no path, no control or quote characters, at most 255 characters. */
export function cleanFileName(original: string | undefined): string {
  const base = (original ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = [...base]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f && ch !== '"')
    .join('')
    .trim()
    .slice(0, 255);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'document' : cleaned;
}

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/[\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
