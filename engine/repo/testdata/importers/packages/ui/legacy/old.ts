import moment from 'moment'
