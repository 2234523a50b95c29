#!/usr/bin/env node
/**
 * Is a response serializer compiled from the contract worth it? The customer answer
 * serialized by JSON.stringify (what the service does) and by fast-json-stringify (what
 * Fastify compiles from a response JSON Schema) built from the contract's zod schema
 * (z.toJSONSchema), per call, against the whole CPU cost of a customer GET (bench/compare).
 *
 *   node bench/serialize.mjs            # ITERATIONS=200000
 */
import { createRequire } from 'node:module';
import { register } from 'tsx/esm/api';

register();
const { Customer } = await import('../src/contract/referentials.ts');
const { z } = await import('zod');
const require = createRequire(import.meta.url);
const fastJson = require(require.resolve('fast-json-stringify', { paths: [require.resolve('fastify')] }));

const ITERATIONS = Number(process.env.ITERATIONS ?? 200_000);
const customer = Customer.parse({
  customerCode: 'BENCH000001',
  name: 'Customer 1',
  officeCode: 'BENCH',
  parentCustomerCode: null,
  addressDetails: { address: '1 bench street', zipCode: '69002', city: 'Lyon', country: 'FR' },
  contact: { name: 'Desk', details: [{ type: 'Phone', description: null, value: '+33 4 00 00 00 00' }] },
  description: null,
  customFields: {},
  lastUpdate: '2026-03-01T08:00:00Z',
});
const schema = z.toJSONSchema(Customer, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
const compiled = fastJson(schema);

const same = JSON.stringify(JSON.parse(compiled(customer))) === JSON.stringify(customer);
function time(label, fn) {
  for (let i = 0; i < 20_000; i++) fn(customer); // warm-up
  const start = process.hrtime.bigint();
  let bytes = 0;
  for (let i = 0; i < ITERATIONS; i++) bytes += fn(customer).length;
  const ns = Number(process.hrtime.bigint() - start) / ITERATIONS;
  return { label, us: ns / 1000, bytes: bytes / ITERATIONS };
}
const rows = [
  time('JSON.stringify', JSON.stringify),
  time('fast-json-stringify (from the zod schema)', compiled),
];
console.log(
  `\nCustomer answer serialization, ${ITERATIONS} calls (Node ${process.version}); same JSON: ${same}\n`,
);
console.log('| serializer | µs per answer | bytes |\n|---|---|---|');
for (const r of rows) console.log(`| ${r.label} | ${r.us.toFixed(2)} | ${r.bytes} |`);
const saved = rows[0].us - rows[1].us;
console.log(
  `\nA compiled serializer saves ${saved.toFixed(2)} µs per customer answer, ${((saved / 300) * 100).toFixed(1)} % of the 0.3 ms CPU budget of a GET.`,
);
