import { collectionRoutes } from '../../../collections/routes.ts'
import { Animals } from '../../../schemas/animal.ts'

export default collectionRoutes(Animals)
