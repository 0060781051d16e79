import type { FastifyRequest } from 'fastify'

/**
 * The remote address of the requests the API sends itself (the job worker's replays). Not an IP
 * address, so no connection can have it; a forwarded header cannot fake it either, since it is
 * compared with the socket's own address.
 */
export const INTERNAL_ADDRESS = 'internal'

/** Whether the API sent the request to itself. */
export const isInternal = (request: FastifyRequest): boolean => request.socket.remoteAddress === INTERNAL_ADDRESS
