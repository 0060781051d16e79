import { workerData } from 'node:worker_threads'
import { answerAsked } from '../threads/asked.ts'
import { Destinations, type AllowedHosts } from './destination.ts'
import { keptConnections, post, type Answer, type Round, type Target } from './sending.ts'

/*
 * The thread that sends the deliveries (threads/asked.ts): each question the POSTs of deliveries
 * sent together (one message for them all, a Round), each answer the receivers' statuses or why there was
 * none, in the same order. Its connections kept open between
 * deliveries, each opened through the lookup that checks its address against the hosts it was given.
 */

const destinations = new Destinations(workerData as AllowedHosts)
const agents = keptConnections()

answerAsked<Round, Answer[]>(async ({ timeout, targets, postings }) =>
  await Promise.all(postings.map(async posting => await post(targets[posting.to] as Target, posting, timeout, destinations, agents))))
