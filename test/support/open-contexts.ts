/**
 * Every test context a file opens, until it is closed. The e2e Jest environment
 * (e2e-environment.js) closes what is left when the file ends, so a beforeAll that timed out while
 * the app was still booting (its ctx never assigned, its afterAll closing nothing) leaves no
 * connection behind and Jest exits by itself.
 */
interface Closable {
  close(): Promise<void>;
}

const registry = ((globalThis as { __e2eOpenContexts?: Set<Promise<Closable>> }).__e2eOpenContexts ??=
  new Set<Promise<Closable>>());

/**
 * Registers a context while it boots and makes its close idempotent (the file's afterAll and the
 * environment may both call it). A boot that fails cleans up after itself (`cleanUp`) and rethrows.
 */
export function tracked<T extends Closable>(boot: () => Promise<T>): Promise<T> {
  const booting = boot().then((context) => {
    let closing: Promise<void> | undefined;
    const close = context.close.bind(context);
    context.close = () => {
      closing ??= close().finally(() => registry.delete(booting));
      return closing;
    };
    return context;
  });
  registry.add(booting);
  booting.catch(() => registry.delete(booting));
  return booting;
}

/**
 * Has the file's end call `close` unless the test closed it first (by calling the returned
 * function): a receiver or proxy that a failed expectation never reached the stop of would
 * otherwise keep its port open, and Jest, running the files in band, would never exit.
 */
export function closeAtFileEnd(close: () => Promise<void>): () => void {
  const entry = Promise.resolve<Closable>({ close });
  registry.add(entry);
  return () => registry.delete(entry);
}
