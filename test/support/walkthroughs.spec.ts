import { fillPlaceholders, matches, parseExpected, walkthroughs } from './walkthroughs';

describe('README walkthrough blocks', () => {
  it('reads only marked blocks, joins continued commands and attaches answers', () => {
    const [w, ...rest] = walkthroughs(md);
    expect(rest).toEqual([]);
    expect(w.name).toBe('demo');
    expect(w.steps.map((s) => [s.line, s.command, s.expected?.status, s.expected?.body])).toEqual([
      [8, 'AUTH="-u $PK:$SK"', undefined, undefined],
      [10, 'curl $AUTH localhost:3000/v1/x -d \'{"a":\n  1}\'', 201, { id: 'fs_...' }],
      [12, 'curl localhost:3000/v1/y/fs_... \\\n  -H x:y', 200, [{ n: 1 }]],
    ]);
  });

  it('refuses a marker that is not right before a sh block', () => {
    expect(() => walkthroughs('<!-- walkthrough: x -->\n\ntext\n```sh\n```')).toThrow(/right before/);
    expect(walkthroughs('<!-- walkthrough: x -->\n\n```sh\ncurl a\n```')[0].steps).toHaveLength(1);
  });

  it('matches shown fields, leading items and id prefixes', () => {
    expect(matches({ id: 'fs_...', a: [1] }, { id: 'fs_9x', a: [1, 2], b: 3 })).toBe(true);
    expect(matches({ id: 'fs_...' }, { id: 'txn_1' })).toBe(false);
    expect(matches({ cash: '500.00' }, { cash: '500.05' })).toBe(false);
    expect(matches([{ a: 1 }], [])).toBe(false);
    expect(parseExpected('422', '{"error":{"code":"SVC-422-002",...}}').body).toEqual({
      error: { code: 'SVC-422-002' },
    });
  });

  it('fills ids and fields from the newest answer that holds them', () => {
    const answers = [
      { id: 'fs_old', url: 'http://a' },
      { data: [{ id: 'fs_new' }], account_id: 'acc-1' },
    ];
    expect(fillPlaceholders('x/fs_.../<account_id>/<url>', answers)).toBe('x/fs_new/acc-1/http://a');
    expect(() => fillPlaceholders('ord_...', answers)).toThrow(/ord_/);
  });

  /** The README excerpt the first case reads: one unmarked block, then a marked one. */
  const md = [
    'Text.',
    '```sh',
    'curl never-run',
    '```',
    '<!-- walkthrough: demo -->',
    '',
    '```sh',
    'AUTH="-u $PK:$SK"',
    '# a comment',
    'curl $AUTH localhost:3000/v1/x -d \'{"a":',
    '  1}\'  # → 201 {"id":"fs_...",...}',
    'curl localhost:3000/v1/y/fs_... \\',
    '  -H x:y',
    '# → 200 [{"n":1,...},...]',
    '```',
  ].join('\n');
});
