import { collectionRoutes } from '../../../collections/routes.ts'
import { Zoos } from '../../../schemas/index.ts'

export default collectionRoutes(Zoos)
