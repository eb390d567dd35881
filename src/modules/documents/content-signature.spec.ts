import { cleanFileName, contentDisposition, sniffContentType } from 'src/modules/documents/content-signature';

describe('document content checks', () => {
  it('recognises PDF, PNG and JPEG by their first bytes only', () => {
    expect(sniffContentType(Buffer.from('%PDF-1.4\n'))).toBe('application/pdf');
    expect(sniffContentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(
      'image/png',
    );
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('GIF89a'))).toBeUndefined();
    expect(sniffContentType(Buffer.from('%PD'))).toBeUndefined();
    expect(sniffContentType(Buffer.from('hello %PDF-'))).toBeUndefined();
  });

  it('keeps only the base name of an uploaded file, without control characters', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\ada\\passport.pdf')).toBe('passport.pdf');
    expect(cleanFileName('a\r\n"b".pdf')).toBe('ab.pdf');
    expect(cleanFileName('..')).toBe('document');
    expect(cleanFileName(undefined)).toBe('document');
  });

  it('writes Content-Disposition with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('façade 1.pdf')).toBe(
      `attachment; filename="fa_ade 1.pdf"; filename*=UTF-8''fa%C3%A7ade%201.pdf`,
    );
  });
});
