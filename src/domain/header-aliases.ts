/**
 * What ERPs and spreadsheets in Brazil call our fields (`CNPJ`, `E-mail`, `CEP`, `Quantidade`): the header names
 * whose meaning is plain, so an unknown or missing column can say which field it probably is. Pure.
 *
 * Keys are headers as headerKey() reads them (no case, accents, spaces or punctuation). Where each came from:
 * - [pt-BR]: the headers of Brazilian spreadsheets and ERP exports in this project's samples and test fixtures
 *   (`samples/clientes-erp.csv`, `test/fixtures/`), and plain Portuguese words for the field.
 * - [Protheus]: TOTVS Protheus's data dictionary, the titles its customer (SA1) and supplier (SA2) tables show and
 *   export: `Nome`, `Razao Social`, `N Fantasia`, `CNPJ/CPF`, `Ins. Estad.`, `Endereco`, `Numero`, `Bairro`,
 *   `Municipio`, `Estado`, `CEP`, `Telefone`, `Contato` (public copy: github.com/AlencarGabriel/Dicionario-dados-Protheus,
 *   wiki page SA1).
 * - [Omie]: the field names of Omie's customer API and exports (developer.omie.com.br, "Clientes, Fornecedores,
 *   Transportadoras"): `razao_social`, `nome_fantasia`, `cnpj_cpf`, `inscricao_estadual`, `endereco_numero`,
 *   `telefone1_numero`, `contato`.
 * - [Sicredi]: the customer sheet of Sicredi's Organizador PJ, "Nome/Razão Social" (ajuda.organizadorpj.sicredi.com.br,
 *   "Como criar terceiros em massa").
 * - [NF-e]: the tags of an NF-e's item (its layout, Manual de Orientação do Contribuinte): `NCM`, `vUnCom`, `vDesc`,
 *   `vFrete`, `pICMS`, `pRedBC`, `pIPI`, `pICMSUFDest`, `pFCPUFDest`, which tax tables and their
 *   spreadsheets often take as column names.
 */
const aliases: Readonly<Record<string, readonly string[]>> = {
  // The document: [pt-BR] `CPF`, `CNPJ`, `CPF/CNPJ`; [Protheus] `CNPJ/CPF`; [Omie] `cnpj_cpf`.
  cpf: ['document'],
  cnpj: ['document'],
  cpfcnpj: ['document'],
  cnpjcpf: ['document'],
  documento: ['document'],
  doc: ['document'],
  // The login: [pt-BR].
  email: ['username'],
  mail: ['username'],
  login: ['username'],
  usuario: ['username'],
  emailcontato: ['username'],
  // Addresses: [pt-BR], [Protheus] `CEP`, `Endereco`, `Numero`, `Bairro`, `Municipio`, `Estado`; [Omie] `endereco_numero`.
  cep: ['customerRegistrationAddress.zipcode', 'addressList.0.zipcode'],
  zipcode: ['customerRegistrationAddress.zipcode', 'addressList.0.zipcode'],
  numero: ['customerRegistrationAddress.number', 'addressList.0.number'],
  num: ['customerRegistrationAddress.number', 'addressList.0.number'],
  endereconumero: ['customerRegistrationAddress.number', 'addressList.0.number'],
  complemento: ['customerRegistrationAddress.complement', 'addressList.0.complement'],
  logradouro: ['customerRegistrationAddress.street', 'addressList.0.street'],
  endereco: ['customerRegistrationAddress.street', 'addressList.0.street'],
  rua: ['customerRegistrationAddress.street', 'addressList.0.street'],
  bairro: ['customerRegistrationAddress.quarter', 'addressList.0.quarter'],
  cidade: ['customerRegistrationAddress.city', 'addressList.0.city'],
  municipio: ['customerRegistrationAddress.city', 'addressList.0.city'],
  uf: ['customerRegistrationAddress.state', 'addressList.0.state'],
  estado: ['customerRegistrationAddress.state', 'addressList.0.state'],
  // The phone: [pt-BR], [Protheus] `Telefone`; [Omie] `telefone1_numero`.
  telefone: ['phone'],
  fone: ['phone'],
  celular: ['phone'],
  whatsapp: ['phone'],
  tel: ['phone'],
  telefone1numero: ['phone'],
  // The name: [pt-BR] `Nome`, `Razão Social`, `Razão Social / Nome`, `Nome do cliente`; [Protheus] `Nome`,
  // `Razao Social`; [Omie] `razao_social`; [Sicredi] `Nome/Razão Social`.
  nome: ['name'],
  nomecliente: ['name'],
  nomedocliente: ['name'],
  cliente: ['name'],
  razao: ['name'],
  razaosocial: ['name'],
  razaosocialnome: ['name'],
  nomerazaosocial: ['name'],
  nomeourazaosocial: ['name'],
  razaosocialounome: ['name'],
  // The trading name: [pt-BR] `Nome Fantasia`; [Protheus] `N Fantasia`; [Omie] `nome_fantasia`.
  nomefantasia: ['tradingName'],
  fantasia: ['tradingName'],
  nfantasia: ['tradingName'],
  // The contact: [pt-BR], [Protheus] `Contato`; [Omie] `contato`.
  contato: ['contactName'],
  nomecontato: ['contactName'],
  nomedocontato: ['contactName'],
  // The kind of person: [pt-BR] `Tipo Pessoa`.
  tipopessoa: ['documentType'],
  pessoa: ['documentType'],
  tipo: ['documentType'],
  tipodocumento: ['documentType'],
  senha: ['password'],
  // The active flag of a status sheet: [pt-BR] `Ativo`, `Situação`, `Status` (ativo/inativo, bloqueado/liberado, 1/0).
  ativo: ['active'],
  situacao: ['active'],
  status: ['active'],
  // The state registration: [pt-BR] `Inscrição Estadual`, `IE`; [Protheus] `Ins. Estad.`; [Omie] `inscricao_estadual`.
  inscricaoestadual: ['stateRegistration'],
  inscestadual: ['stateRegistration'],
  insestad: ['stateRegistration'],
  ie: ['stateRegistration'],
  // ICMS taxpayer (Sim/Não, S/N, 1/0): [pt-BR] `Contribuinte ICMS`, `Contribuinte do ICMS`, `Contribuinte`; in a
  // tax table, the kind of buyer a row is for.
  contribuinte: ['paysIcms', 'buyer'],
  contribuinteicms: ['paysIcms', 'buyer'],
  contribuintedoicms: ['paysIcms', 'buyer'],
  contribuintedeicms: ['paysIcms', 'buyer'],
  // Stock: [pt-BR] `Código`, `Referência`, `Qtde`, `Estoque`, `Preço`, `Depósito`.
  codigo: ['sku'],
  cod: ['sku'],
  codigoproduto: ['sku'],
  codigodoproduto: ['sku'],
  referencia: ['sku'],
  ref: ['sku'],
  produto: ['sku'],
  quantidade: ['quantity'],
  qtd: ['quantity'],
  qtde: ['quantity'],
  estoque: ['quantity'],
  saldo: ['quantity'],
  saldoemestoque: ['quantity'],
  preco: ['price', 'unitPrice'],
  precovenda: ['price'],
  precodevenda: ['price'],
  valor: ['price'],
  precopromocional: ['salePrice'],
  deposito: ['warehouse'],
  armazem: ['warehouse'],
  // A tax table's row: [pt-BR] `NCM/SH`, `UF origem`, `UF destino`, `Alíquota ICMS`, `Redução BC`, `Alíquota IPI`,
  // `MVA original`, `Alíquota interna destino`, `FCP`, `Redução BC destino`; [NF-e] `pICMS`, `pRedBC`, `pIPI`, `pMVAST`, `pICMSUFDest`,
  // `pFCPUFDest`.
  ncmsh: ['ncm'],
  codigoncm: ['ncm'],
  classificacaofiscal: ['ncm'],
  uforigem: ['from'],
  ufdeorigem: ['from'],
  origem: ['from'],
  estadoorigem: ['from'],
  estadodeorigem: ['from'],
  ufdestino: ['to'],
  ufdedestino: ['to'],
  destino: ['to'],
  estadodestino: ['to'],
  estadodedestino: ['to'],
  aliquotaicms: ['icmsRate'],
  aliquotadoicms: ['icmsRate'],
  aliqicms: ['icmsRate'],
  icms: ['icmsRate'],
  picms: ['icmsRate'],
  reducaobc: ['icmsBaseReduction'],
  reducaodebc: ['icmsBaseReduction'],
  reducaodabc: ['icmsBaseReduction'],
  reducaobase: ['icmsBaseReduction'],
  reducaodebase: ['icmsBaseReduction'],
  reducaodabasedecalculo: ['icmsBaseReduction'],
  reducaobcdestino: ['destinationBaseReduction'],
  reducaodebcdestino: ['destinationBaseReduction'],
  predbc: ['icmsBaseReduction'],
  aliquotaipi: ['ipiRate'],
  aliquotadoipi: ['ipiRate'],
  aliqipi: ['ipiRate'],
  ipi: ['ipiRate'],
  pipi: ['ipiRate'],
  mvaoriginal: ['mva'],
  // Not `pMVAST`, nor `MVA-ST`, `MVA ST` or `% MVA` (the labels ERPs and DANFE screens give that same pMVAST, and
  // states give their tables of "MVA-ST ajustada"): the MVA applied, the adjusted one between states; read as the
  // original, an interstate sale's would be adjusted twice. Such a column is asked about, not taken, with what it
  // is (headerCaution), as a user test found `MVA-ST` read as the original.
  aliquotainternadestino: ['destinationRate'],
  aliquotainternadodestino: ['destinationRate'],
  aliquotainterna: ['destinationRate'],
  aliqinterna: ['destinationRate'],
  picmsufdest: ['destinationRate'],
  fcp: ['fcpRate'],
  aliquotafcp: ['fcpRate'],
  pfcp: ['fcpRate'],
  pfcpufdest: ['fcpRate'],
  // A cart's item: [pt-BR] `Valor unitário`, `Desconto`, `Frete`; [NF-e] `vUnCom`, `vDesc`, `vFrete`.
  precounitario: ['unitPrice'],
  valorunitario: ['unitPrice'],
  vlrunitario: ['unitPrice'],
  vuncom: ['unitPrice'],
  desconto: ['discount'],
  valordesconto: ['discount'],
  vdesc: ['discount'],
  frete: ['freight'],
  valorfrete: ['freight'],
  vfrete: ['freight'],
};

/**
 * Headers that look like a field's but hold something else, by headerKey(): the field they would be mistaken for,
 * and what they hold, said wherever b2bctl asks or tells which field such a column is.
 */
const appliedMvaLabel: Lookalike = {
  field: 'mva',
  unlike: 'the original MVA, if this column holds it, not the adjusted one',
  holds:
    "a column labelled MVA-ST, MVA ST or % MVA is, as ERPs, DANFE screens and the states' tables of MVA-ST ajustada label it, most often the MVA applied (an NF-e's pMVAST), already adjusted between states, where mva takes the original MVA (b2bctl adjusts it itself, so read as mva an adjusted MVA is adjusted twice): map it to mva only if it holds the original MVA of the agreement, else map the table's original MVA (MVA original) to mva; with no mva column, no row computes ICMS-ST",
};
const lookalikes: Readonly<Record<string, Lookalike>> = {
  // [NF-e] `pMVAST`: the MVA the note applied, adjusted between states (Convênio ICMS 142/2018, cláusula nona, §1º).
  pmvast: {
    field: 'mva',
    unlike: "the original MVA, not this column's adjusted one",
    holds:
      "an NF-e's pMVAST is the MVA applied, already adjusted between states, not the original MVA that mva takes (b2bctl adjusts it itself, so read as mva an interstate row's MVA is adjusted twice): map the table's original MVA (MVA original) to mva; with no mva column, no row computes ICMS-ST",
  },
  // [pt-BR] The labels ERPs and DANFE screens give pMVAST (`MVA-ST`, `MVA ST`, `% MVA`, `MVA ST %`): `%` is kept as
  // `pct` in these keys, so `% MVA` is told from the field's own name `mva`.
  mvast: appliedMvaLabel,
  pctmva: appliedMvaLabel,
  mvapct: appliedMvaLabel,
  pctmvast: appliedMvaLabel,
  mvastpct: appliedMvaLabel,
};

interface Lookalike {
  /** The field the header would be taken for. */
  field: string;
  /** What that field takes instead, beside the field where it is offered. */
  unlike: string;
  /** What the column holds, and what to do. */
  holds: string;
}

/** What a column holds when its header looks like `field`'s but is not (`pMVAST` for `mva`), if it is such a one. */
export function headerCaution(header: string, knownPaths: readonly string[]): Lookalike | undefined {
  const lookalike = lookalikes[headerKey(header.replaceAll('%', 'pct'))];
  return lookalike !== undefined && knownPaths.includes(lookalike.field) ? lookalike : undefined;
}

/** `E-mail`, ` CNPJ `, `Preço` → `email`, `cnpj`, `preco`: case, accents, spaces and punctuation do not matter. */
export function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * A header or key under which a secret is kept (`password`, `Senha do portal`, `api_token`, `client secret`): its
 * values are never quoted in a message, whatever field (if any) reads them.
 */
export function namesASecret(header: string): boolean {
  return /pass(word|wd)|senha|secret|segredo|token|credencia|credential|apikey|chaveapi/.test(headerKey(header));
}

/** Each list of known paths by its paths' headerKey(): built once per catalogue, not once per header. */
const pathsByKey = new WeakMap<readonly string[], Map<string, string>>();

/**
 * The known field a header names but for case, accents, spaces and punctuation (`SKU`, `Quantity`, `Pays ICMS`
 * for `paysIcms`), if any: that is the field, not a guess, so it is read without a map.
 */
export function fieldSpelledAs(header: string, knownPaths: readonly string[]): string | undefined {
  // `% MVA` spells `mva` but for its `%`, and is a lookalike: asked about, not taken as the field.
  if (header.includes('%') && headerCaution(header, knownPaths) !== undefined) return undefined;
  let byKey = pathsByKey.get(knownPaths);
  if (!byKey) {
    byKey = new Map(knownPaths.map((path) => [headerKey(path), path]));
    pathsByKey.set(knownPaths, byKey);
  }
  return byKey.get(headerKey(header));
}

/** The field a header most probably means, among the fields the input accepts (`knownPaths`), if any. */
export function fieldForHeader(header: string, knownPaths: readonly string[]): string | undefined {
  const candidates = aliases[headerKey(header)];
  return candidates?.find((path) => knownPaths.includes(path));
}

/** What the headers an input's fields do not know would map to: each to its likeliest field, and the rest. */
export interface HeaderMapProposal {
  /** `[header, field]`, in the input's column order; a field already fed by a column is never proposed again. */
  mapped: (readonly [string, string])[];
  /** Headers that name no field b2bctl knows. */
  unmapped: string[];
  /** The fields the other columns already feed: never offered for an unmapped one (two columns, one field). */
  taken: string[];
  /**
   * Unmapped headers that would have read as a field an earlier proposed column reads as (`Ativo` after `Situação`,
   * both `active`): each with that column and field, so the choice of the first is said, not taken in silence.
   */
  rivals: Record<string, readonly [rival: string, field: string]>;
}

/** The map that would read `unknownHeaders`, given the fields the other columns already feed (`taken`). Pure. */
export function proposeHeaderMap(
  unknownHeaders: readonly string[],
  knownPaths: readonly string[],
  taken: readonly string[],
): HeaderMapProposal {
  const used = new Set(taken);
  const proposal: HeaderMapProposal = { mapped: [], unmapped: [], taken: [...taken], rivals: {} };
  for (const header of unknownHeaders) {
    const field = fieldForHeader(
      header,
      knownPaths.filter((path) => !used.has(path)),
    );
    if (field === undefined) {
      proposal.unmapped.push(header);
      const rival = proposal.mapped.find(([, proposed]) => proposed === fieldForHeader(header, [proposed]));
      if (rival !== undefined) proposal.rivals[header] = rival;
    } else {
      used.add(field);
      proposal.mapped.push([header, field]);
    }
  }
  return proposal;
}

/**
 * What an unmapped header is when an earlier column took the field it names: `could be active too, but column
 * "Situação" reads as active`; undefined for a header that names no field.
 */
export function rivalNote(
  header: string,
  proposal: HeaderMapProposal,
  noun: 'column' | 'key' = 'column',
): string | undefined {
  const rival = proposal.rivals[header];
  return rival === undefined ? undefined : `could be ${rival[1]} too, but ${noun} "${rival[0]}" reads as ${rival[1]}`;
}
