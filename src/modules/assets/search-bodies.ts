import { Injectable } from '@nestjs/common';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';

const MINUTE = 60_000;
/** Answers kept per result list and minute: one per mode and path in practice, a few at most. */
const VARIANTS_KEPT = 8;

/**
 * Whole search answers as encoded JSON, kept per result list (the array AssetSearchCache shares
 * between requests while the catalogue is unchanged) and minute. An answer is a pure function of
 * the rows, the page size, the mode, the path and the minute its prices are taken at (AssetFigures
 * keeps figures per minute), so a repeated search sends the kept bytes: no figures looked up, no
 * text joined or encoded, nothing allocated in proportion to the page. A list replaced on a
 * catalogue change, or dropped from that cache, takes its answers with it (WeakMap); only the
 * latest minute's answers of a list are kept.
 */
@Injectable()
export class SearchBodies {
  private readonly kept = new WeakMap<AssetQueryRow[], { minute: number; bodies: Map<string, Buffer> }>();

  /** The kept answer of `rows` for the variant (page size, mode, path) at `at`, or undefined. */
  get(rows: AssetQueryRow[], variant: string, at: Date): Buffer | undefined {
    const entry = this.kept.get(rows);
    return entry?.minute === minuteOf(at) ? entry.bodies.get(variant) : undefined;
  }

  keep(rows: AssetQueryRow[], variant: string, at: Date, body: Buffer): void {
    const minute = minuteOf(at);
    let entry = this.kept.get(rows);
    if (!entry || entry.minute !== minute) {
      entry = { minute, bodies: new Map() };
      this.kept.set(rows, entry);
    }
    if (entry.bodies.size >= VARIANTS_KEPT) {
      entry.bodies.clear();
    }
    entry.bodies.set(variant, body);
  }
}

function minuteOf(at: Date): number {
  return Math.floor(at.getTime() / MINUTE);
}
