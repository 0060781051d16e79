import { collectionRoutes } from '../../../collections/routes.ts'
import { Zoos } from '../../../schemas/zoo.ts'

export default collectionRoutes(Zoos)
