// Baseline A: bare Fastify answering one constant zoo record, the ceiling of the stack (HTTP
// parsing, routing, JSON) with no database and no auth. GET answers 200, POST and PATCH 201.
// Environment: PORT, TLS_CERT and TLS_KEY (HTTPS when both are set). Listens on 127.0.0.1.
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

const { PORT, TLS_CERT, TLS_KEY } = process.env
const app = Fastify(TLS_CERT ? { https: { cert: readFileSync(TLS_CERT), key: readFileSync(TLS_KEY) } } : {})

const zoo = {
  id: 1,
  name: 'zoo 000001',
  city: 'Berlin',
  country: 'DE',
  opened_on: '1844-08-01',
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z'
}

app.get('/*', async () => zoo)
app.post('/*', async (request, reply) => reply.code(201).send(zoo))
app.patch('/*', async (request, reply) => reply.code(201).send(zoo))

await app.listen({ host: '127.0.0.1', port: Number(PORT) })
