import { json, Request, Response } from 'express';
import { Readable } from 'node:stream';
import { parseJsonBody } from 'src/core/http/json-body-reader';

describe('parseJsonBody', () => {
  const bodies = [
    '',
    ' ',
    '{}',
    ' \n\t{"a":1}',
    '\ufeff{"a":1}',
    '[1,2]',
    '"text"',
    '1',
    'null',
    'true',
    '{bad',
    '\t[',
    '{"name":"\u00e9\u4e2d"}',
    '{"__proto__":{"x":1}}',
  ];

  it.each(bodies)('reads %j as body-parser does', async (body) => {
    const bytes = Buffer.from(body, 'utf8');
    expect(viaReader(bytes)).toBe(await viaBodyParser(bytes));
  });

  it('reads invalid UTF-8 as body-parser does', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]);
    expect(viaReader(bytes)).toBe(await viaBodyParser(bytes));
  });
});

/** What body-parser's json() makes of the same bytes: the parsed body, or its error's type and status. */
function viaBodyParser(bytes: Buffer): Promise<string> {
  const parse = json({ limit: '1mb', type: () => true });
  const req = Object.assign(Readable.from([bytes]), {
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) },
  }) as unknown as Request & { body?: unknown };
  return new Promise((resolve) =>
    parse(req, {} as Response, (err?: unknown) => {
      const e = err as { type?: string; status?: number } | undefined;
      resolve(e ? `error ${e.type} ${e.status}` : JSON.stringify(req.body));
    }),
  );
}

function viaReader(bytes: Buffer): string {
  try {
    return JSON.stringify(parseJsonBody(bytes));
  } catch (err) {
    const e = err as { type?: string; status?: number };
    return `error ${e.type} ${e.status}`;
  }
}
