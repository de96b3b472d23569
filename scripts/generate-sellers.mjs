// Writes samples/sellers.json: 64 realistic sales reps, the same every run (seeded random).
// Run: node scripts/generate-sellers.mjs samples/sellers.json   (or npm run -s gen:sellers -- FILE; no FILE: stdout)
// The flags from the one table the CLI and the sandbox read (Node strips its types).
import { permissionFlags } from '../src/domain/sales-rep.ts';
import { generatorOutput, outputPathFrom } from './generator-output.mjs';

let state = 20261122;
const random = () => {
  state = (state * 1103515245 + 12345) % 2 ** 31;
  return state / 2 ** 31;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const chance = (p) => random() < p;

const firstNames = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Eduarda',
  'Felipe',
  'Gabriela',
  'Henrique',
  'Isabela',
  'João',
  'Karina',
  'Lucas',
  'Mariana',
  'Nicolas',
  'Otávio',
  'Paula',
  'Rafael',
  'Sofia',
  'Thiago',
  'Vitória',
  'Wagner',
  'Yasmin',
];
const lastNames = [
  'Silva',
  'Souza',
  'Oliveira',
  'Santos',
  'Pereira',
  'Costa',
  'Rodrigues',
  'Almeida',
  'Nascimento',
  'Lima',
  'Araújo',
  'Fernandes',
  'Carvalho',
  'Gomes',
  'Martins',
  'Rocha',
];
const domains = [
  'distribuidorasul.com.br',
  'Atacadao-Norte.com.br',
  'grupo-vendas.com',
  'REPRESENTACOES.COM.BR',
  'b2b.example.com',
];
const profiles = [
  { id: 1, code: 'VEND-INT', name: 'Vendedor interno' },
  { id: 2, code: 'VEND-EXT', name: 'Vendedor externo' },
  { id: 3, code: 'SUPERV', name: 'Supervisor' },
  { id: 4, code: 'GER-REG', name: 'Gerente regional' },
];

const digits = (n) => Array.from({ length: n }, () => Math.floor(random() * 10));
const checkDigit = (numbers, weights) => {
  const sum = numbers.reduce((total, value, index) => total + value * weights[index], 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
};
function cpf() {
  const base = digits(9);
  const first = checkDigit(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit([...base, first], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const all = [...base, first, second].join('');
  return `${all.slice(0, 3)}.${all.slice(3, 6)}.${all.slice(6, 9)}-${all.slice(9)}`;
}
function cnpj() {
  const base = [...digits(8), 0, 0, 0, 1];
  const first = checkDigit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit([...base, first], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const all = [...base, first, second].join('');
  return `${all.slice(0, 2)}.${all.slice(2, 5)}.${all.slice(5, 8)}/${all.slice(8, 12)}-${all.slice(12)}`;
}
function uuid() {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(random() * 4)];
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}
const strip = (text) => text.normalize('NFD').replace(/\p{M}/gu, '');

const reps = [];
const used = new Set();
let time = Date.parse('2024-02-01T09:15:00.000Z');
while (reps.length < 64) {
  const first = pick(firstNames);
  const last = pick(lastNames);
  let local = `${strip(first)}.${strip(last)}`;
  if (chance(0.5)) local = local.toLowerCase();
  const username = `${local}${used.has(local) ? reps.length : ''}@${pick(domains)}`;
  used.add(local);
  time += Math.floor(random() * 9 * 24 * 3600 * 1000) + 123;
  const createdAt = new Date(time).toISOString();
  const updatedAt = new Date(time + Math.floor(random() * 90 * 24 * 3600 * 1000) + 7).toISOString();
  const rep = { id: uuid(), username, document: chance(0.85) ? cpf() : cnpj() };
  for (const flag of permissionFlags) {
    if (chance(0.45)) rep[flag] = true;
  }
  if (chance(0.75)) rep.attendantCode = `V${String(100 + reps.length * 7).padStart(4, '0')}`;
  if (chance(0.8)) rep.profile = pick(profiles);
  rep.createdAt = createdAt;
  rep.updatedAt = updatedAt;
  reps.push(rep);
}
// Supervisors may look up other reps: a few get allowedSellersId pointing at real ids.
for (const rep of reps) {
  if (rep.profile?.code === 'SUPERV' || rep.profile?.code === 'GER-REG') {
    rep.allowedSellersId = reps.filter((other) => other !== rep && chance(0.08)).map((other) => other.id);
  }
}
const output = generatorOutput(outputPathFrom(process.argv.slice(2)));
await output.write(`${JSON.stringify(reps, null, 2)}\n`);
await output.end();
