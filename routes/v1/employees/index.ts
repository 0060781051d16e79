import { collectionRoutes } from '../../../collections/routes.ts'
import { Employees } from '../../../schemas/employee.ts'

export default collectionRoutes(Employees)
