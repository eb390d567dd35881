import { Injectable } from '@nestjs/common';
import type { ValueTransformer } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { validateEnvironment } from 'src/core/config/environment';
import { SecretBox } from 'src/core/crypto/secret-box';

/** Used only when DATA_ENCRYPTION_KEY is unset, which configuration allows outside production. */
const SANDBOX_DATA_KEY = 'investment-service sandbox data key (not for production)';

/** What DATA_ENCRYPTION_KEY protects; each purpose gets its own derived key. */
export type DataPurpose = 'personal-data' | 'idempotent-responses';

function dataBox(purpose: DataPurpose, configured: string | undefined): SecretBox {
  return new SecretBox({
    purpose,
    keyMaterial: configured ?? SANDBOX_DATA_KEY,
    keyName: 'DATA_ENCRYPTION_KEY',
  });
}

/** The process's boxes keyed by DATA_ENCRYPTION_KEY, for services. */
@Injectable()
export class DataEncryption {
  private readonly boxes = new Map<DataPurpose, SecretBox>();

  constructor(private readonly config: AppConfig) {}

  box(purpose: DataPurpose): SecretBox {
    let box = this.boxes.get(purpose);
    if (!box) {
      box = dataBox(purpose, this.config.get('DATA_ENCRYPTION_KEY'));
      this.boxes.set(purpose, box);
    }
    return box;
  }
}

const environmentBoxes = new Map<DataPurpose, SecretBox>();

/**
 * The same boxes for code that runs outside dependency injection: entity column transformers
 * and migrations. The key comes from the same validated environment AppConfig reads.
 */
export function dataBoxFromEnvironment(purpose: DataPurpose): SecretBox {
  let box = environmentBoxes.get(purpose);
  if (!box) {
    box = dataBox(purpose, validateEnvironment(process.env).DATA_ENCRYPTION_KEY);
    environmentBoxes.set(purpose, box);
  }
  return box;
}

/**
 * A text column stored encrypted (AES-256-GCM under DATA_ENCRYPTION_KEY): the entity holds the
 * plain value in memory, the database only the sealed form. Each write seals with a fresh IV.
 */
export function encryptedColumn(purpose: DataPurpose): ValueTransformer {
  return {
    to: (value: string | null | undefined) =>
      typeof value === 'string' ? dataBoxFromEnvironment(purpose).seal(value) : value,
    from: (value: string | null) => (value === null ? null : dataBoxFromEnvironment(purpose).open(value)),
  };
}
