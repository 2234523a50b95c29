#!/usr/bin/env node
// The ceiling of bench/compare.mjs: a bare Fastify route answering a fixed customer, with
// no authentication, database or logging. PORT from the environment.
import Fastify from 'fastify';

const customer = {
  customerCode: 'BENCH000001',
  name: 'Customer 1',
  officeCode: 'BENCH',
  addressDetails: { address: '1 bench street', zipCode: '69002', city: 'Lyon', country: 'FR' },
  contact: { name: 'Desk', details: [{ type: 'Phone', value: '+33 4 00 00 00 00' }] },
  customFields: {},
};
const app = Fastify({ logger: false });
app.get('/eTech/rest/ws/referentials/v1/customers/:code', async () => customer);
app.put('/eTech/rest/ws/referentials/v1/customers/:code', async (_req, reply) => reply.code(204).send());
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.stderr.write('bare fastify ready\n');
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => app.close().then(() => process.exit(0)));
