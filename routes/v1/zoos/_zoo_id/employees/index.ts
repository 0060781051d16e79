import { collectionRoutes } from '../../../../../collections/routes.ts'
import { Employees } from '../../../../../schemas/employee.ts'
import { Zoos } from '../../../../../schemas/zoo.ts'

export default collectionRoutes(Employees, { within: Zoos })
