import { workerData } from 'node:worker_threads'
import { answerAsked } from '../threads/asked.ts'
import { Destinations, type AllowedHosts } from './destination.ts'
import { keptConnections, post, type Answer, type Posting } from './sending.ts'

/*
 * The thread that sends the deliveries (threads/asked.ts): each question a delivery's POST, each
 * answer the receiver's status or why there was none. Its connections kept open between
 * deliveries, each opened through the lookup that checks its address against the hosts it was given.
 */

const destinations = new Destinations(workerData as AllowedHosts)
const agents = keptConnections()

answerAsked<Posting, Answer>(async posting => await post(posting, destinations, agents))
