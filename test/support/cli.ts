import { buildProgram } from 'src/cli/main';

/**
 * Runs one support CLI command in-process (the in-process app's database) and answers the JSON it
 * printed; a refused command rejects with its message. Close the CLI's context in afterAll
 * (closeCliContext from src/cli/cli-context).
 */
export async function runCli(...args: string[]): Promise<any> {
  const chunks: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(chunk.toString());
    return true;
  });
  try {
    await buildProgram({ throwOnError: true }).parseAsync(['node', 'cli', ...args]);
  } finally {
    write.mockRestore();
  }
  return JSON.parse(chunks.join(''));
}
