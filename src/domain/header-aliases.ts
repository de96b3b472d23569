/**
 * What ERPs and spreadsheets in Brazil call our fields (`CNPJ`, `E-mail`, `CEP`, `Quantidade`): the header names
 * whose meaning is plain, so an unknown or missing column can say which field it probably is. Pure.
 */
const aliases: Readonly<Record<string, readonly string[]>> = {
  cpf: ['document'],
  cnpj: ['document'],
  cpfcnpj: ['document'],
  cnpjcpf: ['document'],
  documento: ['document'],
  doc: ['document'],
  email: ['username'],
  mail: ['username'],
  login: ['username'],
  usuario: ['username'],
  cep: ['customerRegistrationAddress.zipcode', 'addressList.0.zipcode'],
  zipcode: ['customerRegistrationAddress.zipcode', 'addressList.0.zipcode'],
  telefone: ['phone'],
  fone: ['phone'],
  celular: ['phone'],
  whatsapp: ['phone'],
  tel: ['phone'],
  nome: ['name'],
  nomecliente: ['name'],
  cliente: ['name'],
  razaosocial: ['name'],
  nomefantasia: ['tradingName'],
  numero: ['customerRegistrationAddress.number', 'addressList.0.number'],
  num: ['customerRegistrationAddress.number', 'addressList.0.number'],
  complemento: ['customerRegistrationAddress.complement', 'addressList.0.complement'],
  logradouro: ['customerRegistrationAddress.street', 'addressList.0.street'],
  endereco: ['customerRegistrationAddress.street', 'addressList.0.street'],
  rua: ['customerRegistrationAddress.street', 'addressList.0.street'],
  bairro: ['customerRegistrationAddress.quarter', 'addressList.0.quarter'],
  cidade: ['customerRegistrationAddress.city', 'addressList.0.city'],
  municipio: ['customerRegistrationAddress.city', 'addressList.0.city'],
  uf: ['customerRegistrationAddress.state', 'addressList.0.state'],
  estado: ['customerRegistrationAddress.state', 'addressList.0.state'],
  contato: ['contactName'],
  nomecontato: ['contactName'],
  tipopessoa: ['documentType'],
  pessoa: ['documentType'],
  razao: ['name'],
  fantasia: ['tradingName'],
  emailcontato: ['username'],
  senha: ['password'],
  tipo: ['documentType'],
  tipodocumento: ['documentType'],
  inscricaoestadual: ['stateRegistration'],
  inscestadual: ['stateRegistration'],
  ie: ['stateRegistration'],
  codigo: ['sku'],
  cod: ['sku'],
  referencia: ['sku'],
  ref: ['sku'],
  produto: ['sku'],
  quantidade: ['quantity'],
  qtd: ['quantity'],
  qtde: ['quantity'],
  estoque: ['quantity'],
  saldo: ['quantity'],
  preco: ['price'],
  valor: ['price'],
  precopromocional: ['salePrice'],
  deposito: ['warehouse'],
  armazem: ['warehouse'],
};

/** `E-mail`, ` CNPJ `, `Preço` → `email`, `cnpj`, `preco`: case, accents, spaces and punctuation do not matter. */
export function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
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
}

/** The map that would read `unknownHeaders`, given the fields the other columns already feed (`taken`). Pure. */
export function proposeHeaderMap(
  unknownHeaders: readonly string[],
  knownPaths: readonly string[],
  taken: readonly string[],
): HeaderMapProposal {
  const used = new Set(taken);
  const proposal: HeaderMapProposal = { mapped: [], unmapped: [] };
  for (const header of unknownHeaders) {
    const field = fieldForHeader(
      header,
      knownPaths.filter((path) => !used.has(path)),
    );
    if (field === undefined) proposal.unmapped.push(header);
    else {
      used.add(field);
      proposal.mapped.push([header, field]);
    }
  }
  return proposal;
}
