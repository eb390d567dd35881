import { isDatabaseUnavailable } from 'src/core/database/connection-errors';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['too many connections', { code: '53300', message: 'sorry, too many clients already' }],
    ['a connection exception (class 08)', { code: '08006', message: 'connection failure' }],
    [
      'the server shutting down',
      { code: '57P01', message: 'terminating connection due to administrator command' },
    ],
    ['the server starting up', { code: '57P03', message: 'the database system is starting up' }],
    ['a refused socket', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    ['a connection cut by the driver', new Error('Connection terminated unexpectedly')],
    ['no pool connection in time', new Error('timeout exceeded when trying to connect')],
  ])('is true for %s', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505', message: 'duplicate key value violates unique constraint' }],
    ['a deadlock', { code: '40P01', message: 'deadlock detected' }],
    ['a statement timeout', { code: '57014', message: 'canceling statement due to statement timeout' }],
    ['a plain error', new Error('Cannot read properties of undefined')],
    ['a string', 'Connection terminated unexpectedly'],
    ['null', null],
  ])('is false for %s (a failed statement or a bug: 500)', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
