import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A product of the store as seeded: its SKU, name, and whether it is on sale. */
export interface Product {
  sku: string;
  name: string;
  active: boolean;
}

const generatedPrefix = 'GEN-';
const generatedDigits = 7;
const generatedPattern = /^GEN-(\d{7,})$/;

/** The n-th generated SKU: `GEN-0000001` for 1 (at least 7 digits, no extra leading zeros). */
export function generatedSku(position: number): string {
  return `${generatedPrefix}${String(position).padStart(generatedDigits, '0')}`;
}

/**
 * The SKUs the store knows: the seeded products, plus `GEN-0000001` … `GEN-<N>`, which are known
 * (and on sale) without being stored, so a million-row benchmark file is valid while memory stays
 * proportional to what was pushed.
 */
export class Catalogue {
  readonly generatedSkus: number;
  private readonly products = new Map<string, { name: string; seededActive: boolean; active: boolean }>();
  private offSale = 0;

  constructor(products: readonly Product[], generatedSkus: number) {
    this.generatedSkus = generatedSkus;
    for (const product of products) {
      this.products.set(product.sku, { name: product.name, seededActive: product.active, active: product.active });
      if (!product.active) this.offSale++;
    }
  }

  has(sku: string): boolean {
    return this.products.has(sku) || this.generatedPosition(sku) !== undefined;
  }

  /** True for a product on sale; generated SKUs are always on sale. */
  isActive(sku: string): boolean {
    return this.products.get(sku)?.active ?? this.generatedPosition(sku) !== undefined;
  }

  /** Puts an off-sale product back on sale (stock sent through the API does that). */
  reactivate(sku: string): void {
    const product = this.products.get(sku);
    if (product && !product.active) {
      product.active = true;
      this.offSale--;
    }
  }

  /** Products seeded from products.json (generated SKUs not counted). */
  get seededCount(): number {
    return this.products.size;
  }

  get offSaleCount(): number {
    return this.offSale;
  }

  /** Every product back to its seeded on-sale flag. */
  reset(): void {
    this.offSale = 0;
    for (const product of this.products.values()) {
      product.active = product.seededActive;
      if (!product.active) this.offSale++;
    }
  }

  private generatedPosition(sku: string): number | undefined {
    const match = generatedPattern.exec(sku);
    if (!match?.[1]) return undefined;
    const position = Number(match[1]);
    if (position < 1 || position > this.generatedSkus || generatedSku(position) !== sku) return undefined;
    return position;
  }
}

/** Reads `products.json` of the seed folder: an array of {sku, name, active}. */
export function loadCatalogue(seedDirectory: string, generatedSkus: number): Catalogue {
  const file = join(seedDirectory, 'products.json');
  const seeds = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(seeds)) throw new Error(`${file}: expected an array of {sku, name, active}`);
  const products: Product[] = [];
  const seen = new Set<string>();
  seeds.forEach((seed: unknown, index) => {
    const record = (typeof seed === 'object' && seed !== null ? seed : {}) as Record<string, unknown>;
    const where = `${file}: product ${index + 1}`;
    if (typeof record.sku !== 'string' || record.sku.trim() !== record.sku || record.sku === '')
      throw new Error(`${where}: sku must be a non-empty code without surrounding spaces`);
    if (generatedPattern.test(record.sku))
      throw new Error(`${where}: sku ${record.sku} is in the generated range; choose another code`);
    if (seen.has(record.sku)) throw new Error(`${where}: sku ${record.sku} appears twice`);
    if (typeof record.name !== 'string') throw new Error(`${where}: name must be text`);
    if (record.active !== undefined && typeof record.active !== 'boolean')
      throw new Error(`${where}: active must be true or false`);
    seen.add(record.sku);
    products.push({ sku: record.sku, name: record.name, active: record.active !== false });
  });
  return new Catalogue(products, generatedSkus);
}
