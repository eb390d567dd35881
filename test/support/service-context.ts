import 'reflect-metadata';
import type { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AppConfigModule } from 'src/core/config/config.module';
import { DatabaseModule } from 'src/core/database/database.module';
import { AppLogger } from 'src/core/logging/app-logger';
import { LoggingModule } from 'src/core/logging/logging.module';
import { TenancyModule } from 'src/core/tenancy/tenancy.module';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { isRemote } from './app';
import { templateDb, withAdmin } from './database';
import { tracked } from './open-contexts';

/** A service-only context ("medium" test): the given modules on the file's own database, no HTTP. */
export interface ServiceContext {
  app: INestApplicationContext;
  dataSource: DataSource;
  /** A new tenant (row and keys), for rows that reference one. */
  createTenant(): Promise<string>;
  close(): Promise<void>;
}

/** `describe` for medium specs: they need the database itself, so they never run against a sandbox. */
export const describeLocal: jest.Describe = isRemote ? describe.skip : describe;

export function createServiceContext(imports: Array<Type<unknown> | DynamicModule>): Promise<ServiceContext> {
  return tracked(() => bootServiceContext(imports));
}

async function bootServiceContext(imports: Array<Type<unknown> | DynamicModule>): Promise<ServiceContext> {
  const fileDb = process.env.TEST_FILE_DB as string;
  const dropFileDb = () =>
    withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${fileDb}" WITH (FORCE)`));
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${fileDb}" TEMPLATE "${templateDb()}"`));
  let app: INestApplicationContext;
  let moduleRef: TestingModule | undefined;
  try {
    moduleRef = await Test.createTestingModule({
      imports: [AppConfigModule, LoggingModule, DatabaseModule, TenancyModule, ...imports],
    }).compile();
    moduleRef.useLogger(moduleRef.get(AppLogger));
    app = await moduleRef.init();
  } catch (err) {
    // What a failed boot opened is closed with its testing module; the database goes too.
    await moduleRef?.close().catch(() => undefined);
    await dropFileDb().catch(() => undefined);
    throw err;
  }
  const tenancy = app.get(TenancyService);
  return {
    app,
    dataSource: app.get(DataSource),
    async createTenant() {
      return (await tenancy.createTenant('Ledger test partner', [], false)).tenant.id;
    },
    async close() {
      await app.close();
      await dropFileDb();
    },
  };
}
