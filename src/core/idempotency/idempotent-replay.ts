/** Thrown to answer a repeat with the stored response; the error renderer writes it as is. */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('idempotent replay');
  }
}
