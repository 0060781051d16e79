import { Animals } from './animal.ts'
import { Employees } from './employee.ts'
import { Zoos } from './zoo.ts'

/** Every collection the API serves, in the order the hypermedia documents list them. */
export const RESOURCES = [Zoos, Animals, Employees]
export { Animals, Employees, Zoos }
