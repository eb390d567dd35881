import { Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(
          config.get('DATABASE_URL'),
          config.get('DATABASE_POOL_MAX'),
          config.get('DATABASE_POOL_WAIT_MS'),
        ),
        autoLoadEntities: true,
        retryAttempts: 3,
        retryDelay: 1000,
        // Carried through to dataSourceFactory below.
        migrateOnStart: config.get('MIGRATE_ON_START'),
      }),
      // Migrations run before any provider can touch the DataSource.
      dataSourceFactory: async (options) => {
        const { migrateOnStart, ...rest } = options as typeof options & { migrateOnStart?: boolean };
        const dataSource = await new DataSource(rest as typeof options & object).initialize();
        if (migrateOnStart) {
          const applied = await runMigrations(dataSource);
          if (applied.length > 0) {
            new Logger('Database').log(`Applied migrations: ${applied.join(', ')}`);
          }
        }
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
