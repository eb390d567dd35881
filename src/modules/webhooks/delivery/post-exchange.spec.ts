import { PostExchange } from 'src/modules/webhooks/delivery/post-exchange';

describe('PostExchange', () => {
  it('resolves with the final status after 1xx answers, once the answer is complete', async () => {
    const exchange = new PostExchange();
    exchange.onConnect(jest.fn());
    exchange.onHeaders(100);
    exchange.onHeaders(204);
    expect(exchange.onData()).toBe(true);
    exchange.onComplete();
    await expect(exchange.done).resolves.toBe(204);
  });

  it('fails at once with its reason, and closes the connection it has', async () => {
    const exchange = new PostExchange();
    const abort = jest.fn();
    exchange.onConnect(abort);
    exchange.onHeaders(200);
    const reason = new Error('overdue');
    exchange.fail(reason);
    await expect(exchange.done).rejects.toBe(reason);
    expect(abort).toHaveBeenCalledWith(reason);
    // undici then reports the abort as an error: the exchange has already ended.
    exchange.onError(new Error('aborted'));
    exchange.onComplete();
    await expect(exchange.done).rejects.toBe(reason);
  });

  it('failed before reaching a connection, it is dropped when it reaches one', async () => {
    const exchange = new PostExchange();
    const reason = new Error('shutting down');
    exchange.fail(reason);
    await expect(exchange.done).rejects.toBe(reason);
    const abort = jest.fn();
    exchange.onConnect(abort);
    expect(abort).toHaveBeenCalledWith(reason);
  });

  it('an error of the exchange (connection refused) rejects with that error; fail after the end does nothing', async () => {
    const exchange = new PostExchange();
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    exchange.onError(refused);
    await expect(exchange.done).rejects.toBe(refused);
    const abort = jest.fn();
    exchange.onConnect(abort);
    exchange.fail(new Error('overdue'));
    expect(abort).not.toHaveBeenCalled();
  });
});
