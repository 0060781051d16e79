import { Animals } from './animal.js'
import { Employees } from './employee.js'
import { Zoos } from './zoo.js'

/** Every collection the API serves, in the order the hypermedia documents list them. */
export const RESOURCES = [Zoos, Animals, Employees]
export { Animals, Employees, Zoos }
