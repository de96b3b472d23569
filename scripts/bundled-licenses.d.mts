/** What of an esbuild metafile the notices read: the bundle's input paths. */
export interface BundleInputs {
  inputs: Record<string, unknown>;
}
export function packageFolderOf(input: string): string | undefined;
export function licenceOf(packageJson: { license?: unknown; licenses?: unknown }): string | undefined;
export function bundledLicenses(
  metafiles: BundleInputs | BundleInputs[],
  root: string,
  form?: { holder: string; node?: string },
): string;
