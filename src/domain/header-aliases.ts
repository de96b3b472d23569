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
  tel: ['phone'],
  nome: ['name'],
  razaosocial: ['name'],
  nomefantasia: ['tradingName'],
  numero: ['customerRegistrationAddress.number', 'addressList.0.number'],
  senha: ['password'],
  tipo: ['documentType'],
  tipodocumento: ['documentType'],
  inscricaoestadual: ['stateRegistration'],
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
function headerKey(header: string): string {
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
