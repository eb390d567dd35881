import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Module, Post, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { bareInsertServer } from 'bench/lib/bench-servers';
import { countQueries } from 'bench/lib/query-count';

/**
 * Servers of bench/floor: the same single-insert transaction as the bare server, through the
 * stack the service is built on. `nest`: a NestJS (Express) route with a class-validator body and
 * pg; `nest-typeorm`: the same route running its INSERT in a TypeORM transaction. Nothing else.
 */
class FundingDetails {
  @IsIn(['fiat']) funding_type!: string;
  @IsString() @Matches(/^[A-Z]{3}$/) fiat_currency!: string;
  @IsString() @MaxLength(64) bank_account_id!: string;
  @IsIn(['ach', 'wire']) method!: string;
}

class DepositBody {
  @IsString() @Matches(/^\d{1,12}(\.\d{1,2})?$/) amount!: string;
  @ValidateNested() @Type(() => FundingDetails) funding_details!: FundingDetails;
  @IsOptional() @IsString() @MaxLength(500) description?: string;
}

const TABLE = 'bench_deposits';

function controllerFor(insert: (id: string, path: string, body: DepositBody) => Promise<void>) {
  @Controller('v1/wallet/accounts/:accountId')
  class FloorController {
    @Post('funding')
    @HttpCode(201)
    async fund(@Body() body: DepositBody): Promise<object> {
      const id = randomUUID();
      await insert(id, '/funding', body);
      return { transaction_id: id, ...body };
    }
  }
  return FloorController;
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode === 'bare') {
    return bareInsertServer(TABLE, 'transaction_id');
  }
  countQueries();
  let insert: (id: string, path: string, body: DepositBody) => Promise<void>;
  if (mode === 'nest-typeorm') {
    const ds = await new DataSource({
      type: 'postgres',
      url: process.env.DATABASE_URL,
      extra: { max: 20 },
    }).initialize();
    insert = (id, path, body) =>
      ds.transaction(async (manager) => {
        await manager.query(`INSERT INTO ${TABLE} (id, path, body) VALUES ($1, $2, $3)`, [id, path, body]);
      });
  } else {
    const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
    insert = async (id, path, body) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO ${TABLE} (id, path, body) VALUES ($1, $2, $3)`, [id, path, body]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    };
  }
  @Module({ controllers: [controllerFor(insert)] })
  class FloorModule {}
  const app = await NestFactory.create(FloorModule, { logger: false });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
  await app.listen(0, '127.0.0.1');
  process.stdout.write(`LISTENING ${(app.getHttpServer().address() as { port: number }).port}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
