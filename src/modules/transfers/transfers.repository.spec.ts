import type { DataSource, EntityManager } from 'typeorm';
import type { TransferEntity } from 'src/modules/transfers/entities/transfer.entity';
import { TransfersRepository } from 'src/modules/transfers/transfers.repository';

describe('TransfersRepository.update', () => {
  it('stamps updated_at with the time of the change, not the real time', async () => {
    const update = jest.fn().mockResolvedValue({ affected: 1 });
    const manager = { update } as unknown as EntityManager;
    const repository = new TransfersRepository({} as DataSource);
    const row = { id: 'dep_1', status: 'pending', updated_at: new Date(0) } as TransferEntity;
    // A frozen test clock far from the real time.
    const at = new Date('2031-03-04T05:06:07.000Z');

    const changed = await repository.update(manager, row, { status: 'processing', processing_at: at }, at);

    expect(update).toHaveBeenCalledWith(
      expect.anything(),
      { id: 'dep_1', status: 'pending' },
      { status: 'processing', processing_at: at, updated_at: at },
    );
    expect(changed.updated_at).toBe(at);
  });

  it('changes only a row still in the status it was read with, and says so when it is not', async () => {
    const manager = { update: jest.fn().mockResolvedValue({ affected: 0 }) } as unknown as EntityManager;
    const repository = new TransfersRepository({} as DataSource);
    const row = { id: 'dep_1', status: 'pending' } as TransferEntity;
    const at = new Date('2031-03-04T05:06:07.000Z');

    await expect(
      repository.update(manager, row, { status: 'canceled', canceled_at: at }, at),
    ).rejects.toThrow('Transfer dep_1 is no longer pending');
    expect(row.status).toBe('pending');
  });
});
